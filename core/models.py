from django.db import models
from django.utils import timezone


class StateChange(models.Model):
    """One recorded move of a row from one state to another, with its cause: the history of
    workflows and of executors. A subclass adds the foreign key to the row that moved, its
    two state fields (named in `state_fields`) and its own Meta; no table of its own."""

    state_fields = ("from_state", "to_state")

    cause = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True

    def __str__(self):
        before, after = (getattr(self, name) for name in self.state_fields)
        return f"{before or '-'} -> {after} ({self.cause})"
