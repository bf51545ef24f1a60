"""The worker hosts that play matches, with the counts their quarantine is judged by."""

from __future__ import annotations

from django.db import models


class WorkerHost(models.Model):
    """A machine (ARENA_WORKER_NAME) whose workers claim matches.

    `matches`, `faulted` and `failures` are recent counts: the review halves them all
    once a host's matches and failures pass a bound, so they weigh its last few
    hundred attempts (arena.play.workers). The `total_` ones are never halved.
    """

    name = models.CharField(max_length=100, unique=True)
    matches = models.PositiveIntegerField(default=0)  # recorded
    faulted = models.PositiveIntegerField(default=0)  # recorded with a fault of some bot
    failures = models.PositiveIntegerField(default=0)  # attempts lost to the infrastructure
    total_matches = models.PositiveIntegerField(default=0)
    total_faulted = models.PositiveIntegerField(default=0)
    total_failures = models.PositiveIntegerField(default=0)
    quarantined_at = models.DateTimeField(null=True, blank=True)
    quarantine_reason = models.CharField(max_length=300, blank=True)
    first_seen_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def in_rotation(self) -> bool:
        return self.quarantined_at is None
