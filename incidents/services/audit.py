"""Recording audit events: the trail, and nothing else (the services invalidate what they change)."""

from django.contrib.auth.models import AbstractBaseUser

from incidents.models import AuditEvent, Incident, Subject


def actor_label(actor: AbstractBaseUser | None, automation: str = "system") -> str:
    return actor.get_username() if actor is not None else automation


def record_event(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    subject_type: Subject,
    subject_id: object,
    subject_label: str,
    before: dict | None = None,
    after: dict | None = None,
    incident: Incident | None = None,
    automation: str = "system",
) -> AuditEvent:
    """Writes one audit event; call it inside the transaction of the change it describes."""
    return AuditEvent.objects.create(
        actor=actor,
        actor_label=actor_label(actor, automation),
        action=action,
        subject_type=subject_type,
        subject_id=str(subject_id),
        subject_label=subject_label[:300],
        incident=incident,
        before=before or {},
        after=after or {},
    )


def changed_fields(before: dict, after: dict) -> tuple[dict, dict]:
    """Only the keys whose values differ, so the trail shows what actually changed.

    A key `before` lacks (everything, for a record just created) stays out of the old values,
    so the trail says "Name: Replica lag" rather than "Name: — → Replica lag".
    """
    keys = [key for key in after if before.get(key) != after.get(key)]
    return {key: before[key] for key in keys if key in before}, {key: after[key] for key in keys}


def record_changes(
    subject, *, actor: AbstractBaseUser | None, action: str, subject_type: Subject, before: dict, after: dict
) -> None:
    """Records the fields whose values differ (see changed_fields), and nothing when none does."""
    old, new = changed_fields(before, after)
    if old or new:
        record_event(
            actor=actor,
            action=action,
            subject_type=subject_type,
            subject_id=subject.pk,
            subject_label=str(subject),
            before=old,
            after=new,
        )
