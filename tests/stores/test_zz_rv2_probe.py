import pytest
from django.contrib import admin
from django.urls import reverse
from stores.models import Memory, SetAside
from tests import factories as f
pytestmark = pytest.mark.django_db

def test_probe_admin(client, world, api):
    m = f.make_memory(world.project_store, "/conventions/a.md", "A lesson.\n")
    api.as_token(world.agent_token).post(f"/api/v1/memory_stores/{world.project_store.public_id}/memories/{m.public_id}",
        {"content": "v2", "precondition": {"type": "content_sha256", "content_sha256": "0"*64}}, format="json")
    print("setasides", SetAside.objects.count())
    client.force_login(world.admin)
    for model, ma in admin.site._registry.items():
        info = (model._meta.app_label, model._meta.model_name)
        r = client.get(reverse("admin:%s_%s_changelist" % info))
        obj = model.objects.first()
        out = [f"{info}", r.status_code]
        r = client.get(reverse("admin:%s_%s_add" % info)); out.append(("add", r.status_code))
        if obj is not None:
            r = client.get(reverse("admin:%s_%s_change" % info, args=[obj.pk])); out.append(("change", r.status_code))
            r = client.get(reverse("admin:%s_%s_history" % info, args=[obj.pk])); out.append(("hist", r.status_code))
        print(out)
    v = m.history.first()
    r = client.get(f"/admin/stores/memory/{m.pk}/history/{v.history_id}/"); print("revert get", r.status_code)
    r = client.post(f"/admin/stores/memory/{m.pk}/history/{v.history_id}/", {"path": "/x.md", "content": "hacked"}); print("revert post", r.status_code)
    r = client.post(f"/admin/stores/memory/{m.pk}/change/", {"path": "/x.md", "content": "hacked"}); print("change post", r.status_code)
    m.refresh_from_db(); print(m.path, m.content)
