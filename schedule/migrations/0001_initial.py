import uuid

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name='OutboxMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('task_name', models.CharField(max_length=200)),
                ('kwargs', models.JSONField(blank=True, default=dict)),
                ('task_id', models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ('failures', models.PositiveIntegerField(default=0, help_text='Times the task could not be handed to the broker.')),
                ('last_error', models.CharField(blank=True, default='', max_length=255)),
                ('last_failed_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'verbose_name': 'outbox message',
                'ordering': ['id'],
            },
        ),
    ]
