"""Every stored puzzle gets the theme of its line's length (one move, a short line), so none
is without a theme: the bits are those of the themes' places in ``THEMES`` when this was
written (long_line 4, one_move 6, short_line 7)."""

from django.db import migrations

LINE_BITS = {"long_line": 1 << 4, "one_move": 1 << 6, "short_line": 1 << 7}


def line_theme(moves: int) -> str:
    if moves >= 5:
        return "long_line"
    return "one_move" if moves == 1 else "short_line"


def add_line_themes(apps, schema_editor):
    Puzzle = apps.get_model("games", "Puzzle")
    changed = []
    for puzzle in Puzzle.objects.only("pk", "solution", "themes", "theme_bits").iterator(
            chunk_size=2000):
        theme = line_theme(len(puzzle.solution))
        if theme not in puzzle.themes:
            puzzle.themes = [*puzzle.themes, theme]
            puzzle.theme_bits |= LINE_BITS[theme]
            changed.append(puzzle)
    Puzzle.objects.bulk_update(changed, ["themes", "theme_bits"], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0019_seat_focused"),
    ]

    operations = [
        migrations.RunPython(add_line_themes, migrations.RunPython.noop),
    ]
