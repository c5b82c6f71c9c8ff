from django.contrib import admin

from .models import RatingJob


@admin.register(RatingJob)
class RatingJobAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "created_at", "finished_at")
    list_filter = ("kind", "status")
    readonly_fields = ("created_at", "started_at", "finished_at")
