from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0018_match_rematch_accepted'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='focused',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='focused pages'),
        ),
    ]
