from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0023_bomb_pots'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='seven_deuce_bb',
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
