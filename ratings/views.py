from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET, require_POST

from .models import RatingJob
from .services import rating_job_queue


@require_POST
@staff_member_required
def job_ping(request: HttpRequest) -> HttpResponse:
    """Queue a no-op job: shows an organiser that a worker is answering."""
    job = rating_job_queue(kind=RatingJob.Kind.PING, by=request.user)
    return JsonResponse({"id": job.pk, "status": job.status}, status=202)


@require_GET
@staff_member_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(RatingJob, pk=pk)
    return JsonResponse(
        {"id": job.pk, "kind": job.kind, "status": job.status, "result": job.result}
    )
