"""Refusals keep a keyed fingerprint of the refused text, never its plain SHA-256; set-asides of
memories redacted before this keep keyed fingerprints in place of their hashes; a lost create's
set-aside has an empty base."""

import hashlib
import hmac

from django.conf import settings
from django.db import migrations, models


def _fingerprint(purpose: str, sha_hex: str) -> str:
    # The formula of stores.services.content.keyed_fingerprint, written out so this migration
    # keeps its meaning whatever that module becomes.
    if not sha_hex:
        return ""
    key = hashlib.sha256(f"memory-console/{purpose}/".encode() + settings.SECRET_KEY.encode("utf-8")).digest()
    return hmac.new(key, sha_hex.encode("ascii"), hashlib.sha256).hexdigest()


def hashes_to_fingerprints(apps, schema_editor):
    Refusal = apps.get_model("stores", "Refusal")
    SetAside = apps.get_model("stores", "SetAside")
    for pk, sha in Refusal.objects.exclude(content_fingerprint="").values_list("pk", "content_fingerprint").iterator():
        Refusal.objects.filter(pk=pk).update(content_fingerprint=_fingerprint("refusal-content", sha))
    redacted = SetAside.objects.filter(memory__redacted_at__isnull=False)
    for pk, text_sha, base_sha in redacted.values_list("pk", "text_sha256", "base_sha256").iterator():
        SetAside.objects.filter(pk=pk).update(
            text_sha256=_fingerprint("set-aside-text", text_sha), base_sha256=_fingerprint("set-aside-base", base_sha)
        )


class Migration(migrations.Migration):

    dependencies = [
        ("stores", "0004_registry_version"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="refusal", name="refusal_once"),
        migrations.RenameField(model_name="refusal", old_name="content_sha256", new_name="content_fingerprint"),
        migrations.AlterField(
            model_name="refusal",
            name="content_fingerprint",
            field=models.CharField(
                blank=True, default="", max_length=64,
                help_text="A keyed fingerprint of the refused text, to count resends; never the text or its plain hash.",
            ),
        ),
        migrations.AlterField(
            model_name="setaside",
            name="base_sha256",
            field=models.CharField(blank=True, max_length=64),
        ),
        # Irreversible in substance (a keyed fingerprint cannot give the hash back); going back keeps them.
        migrations.RunPython(hashes_to_fingerprints, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="refusal",
            constraint=models.UniqueConstraint(
                fields=("store", "writer_key", "path", "content_fingerprint", "code"), name="refusal_once"
            ),
        ),
    ]
