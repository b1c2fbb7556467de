"""The console's routes plus the baseline: a bare DRF create of the same row, same auth and history."""

from django.urls import include, path
from django.utils import timezone
from rest_framework.response import Response
from rest_framework.views import APIView

from stores.ids import new_version_id
from stores.models import Memory
from stores.selectors import store_for_writer
from stores.services.content import first_line_of, sha256_hex


class BareCreate(APIView):
    """The same authentication, the same row and the same history row, with no checks at all."""

    def post(self, request, store_id: str):
        store = store_for_writer(request.auth, store_id)
        content = request.data["content"]
        now = timezone.now()
        memory = Memory(
            store=store, path=request.data["path"], content=content, content_sha256=sha256_hex(content),
            size_bytes=len(content.encode()), first_line=first_line_of(content), created_at=now, updated_at=now,
            head_version_id=new_version_id(),
        )
        memory._version_meta = {"operation": "created", "actor": request.auth.actor}
        memory.save()
        return Response({"id": memory.public_id, "path": memory.path})


urlpatterns = [
    path("bare/<str:store_id>/memories", BareCreate.as_view()),
    path("", include("memory_console.urls")),
]
