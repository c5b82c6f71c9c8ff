from django.contrib import admin

from .models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "out_1", "out_2", "out_3", "entered_by", "entered_at")
    list_filter = ("status",)
