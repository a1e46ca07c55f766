"""One rating per player and mode: the duel's ratings become the rows of mode "duel".

The primary key changes (from the user to an id of its own), which no ALTER can do on every
database: the rows move to a new table, the old one goes, and the new one takes its name.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def copy_duel_ratings(apps, schema_editor):
    old = apps.get_model("accounts", "PlayerRating")
    new = apps.get_model("accounts", "Rating")
    new.objects.bulk_create(
        [new(user_id=row.user_id, mode="duel", rating=row.rating, deviation=row.deviation,
             volatility=row.volatility, games=row.games, last_rated_at=row.last_rated_at)
         for row in old.objects.all()],
        batch_size=2000,
    )


def copy_back(apps, schema_editor):
    old = apps.get_model("accounts", "PlayerRating")
    new = apps.get_model("accounts", "Rating")
    old.objects.bulk_create(
        [old(user_id=row.user_id, rating=row.rating, deviation=row.deviation,
             volatility=row.volatility, games=row.games, last_rated_at=row.last_rated_at)
         for row in new.objects.filter(mode="duel")],
        batch_size=2000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_player_rating"),
    ]

    operations = [
        migrations.CreateModel(
            name="Rating",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="ratings",
                                           to=settings.AUTH_USER_MODEL)),
                ("mode", models.CharField(choices=[("duel", "Duel"),
                                                   ("correspondence", "Correspondence"),
                                                   ("puzzle", "Puzzles")],
                                          default="duel", max_length=16, verbose_name="mode")),
                ("rating", models.FloatField(default=1500.0, verbose_name="rating")),
                ("deviation", models.FloatField(default=500.0, verbose_name="rating deviation")),
                ("volatility", models.FloatField(default=0.09, verbose_name="rating volatility")),
                ("games", models.PositiveIntegerField(default=0, verbose_name="rated games")),
                ("last_rated_at", models.DateTimeField(blank=True, null=True,
                                                       verbose_name="last rated")),
            ],
            options={
                "verbose_name": "player rating",
                "verbose_name_plural": "player ratings",
            },
        ),
        migrations.RunPython(copy_duel_ratings, copy_back),
        migrations.DeleteModel(name="PlayerRating"),
        migrations.RenameModel(old_name="Rating", new_name="PlayerRating"),
        migrations.AddConstraint(
            model_name="playerrating",
            constraint=models.UniqueConstraint(fields=("user", "mode"),
                                               name="accounts_rating_user_mode"),
        ),
        migrations.AddIndex(
            model_name="playerrating",
            index=models.Index(fields=["mode", "-rating"], name="accounts_rating_mode_rating"),
        ),
    ]
