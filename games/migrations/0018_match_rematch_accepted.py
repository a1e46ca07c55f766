from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0017_several_correspondence_table_seats'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='rematch_accepted',
            field=models.CharField(blank=True, max_length=4, verbose_name='rematch accepted by'),
        ),
    ]
