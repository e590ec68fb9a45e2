"""What the background work is doing, and what waits for a person.

    python -m hotmeals.jobs list          # the periodic jobs: queued, running, failed; the mail
    python -m hotmeals.jobs failed        # jobs and mail every retry failed (a person looks)
    python -m hotmeals.jobs retry ID      # run a failed job again (PostgreSQL's job queue)
    python -m hotmeals.jobs retry-mail ID # send a FAILED mail again, with a fresh set of tries
    python -m hotmeals.jobs run standing  # one round of a job now, here: reconcile, mail,
                                          # housekeeping, reminders or standing
    python -m hotmeals.jobs run reminders --now 2026-12-07T17:05  # demo and tests: at that time

``run`` takes the job's lease first (jobs/periodic.py), so it never runs beside a round of the
embedded default's loops, and prints what the round did. On PostgreSQL the job queue's lock does
not see it; each job is a sweep that is safe to run twice (a standing order's date is booked
once, a reminder sent once, a payment asked again). ``--now`` sets the one clock
(``hotmeals/clock.py``) for this run, as ``HOTMEALS_NOW`` does: demo mode only.

On PostgreSQL the jobs are procrastinate's (hotmeals/jobs/queue.py); on the embedded SQLite
default they run in lease loops, shown with their lease. ``DATABASE_URL`` as for the app;
``--url`` overrides it for one run.
"""

from __future__ import annotations

import asyncio
import os
import sys

from sqlalchemy import func
from sqlmodel import Session, select

from hotmeals import clock
from hotmeals.cli import command_engine, command_parser, database_url
from hotmeals.clock import now as utcnow
from hotmeals.db.engine import get_engine
from hotmeals.db.models import EmailOutbox, JobLease
from hotmeals.jobs import periodic, queue
from hotmeals.services import mail
from hotmeals.services.startup import register_payment_purposes
from hotmeals.settings import get_settings


def _leases(session: Session) -> list[str]:
    now = utcnow()
    lines = ["job           holder                                          lease"]
    for lease in session.exec(select(JobLease).order_by(JobLease.name)).all():
        held = lease.expires_at > now and lease.holder
        state = f"until {lease.expires_at:%Y-%m-%d %H:%M:%S} UTC" if held else "free"
        lines.append(f"{lease.name:<13} {(lease.holder if held else '-'):<47} {state}")
    return lines


def _mail(session: Session) -> list[str]:
    counts = dict(
        session.exec(select(EmailOutbox.status, func.count()).group_by(EmailOutbox.status)).all()
    )
    due = len(mail.due(session, now=utcnow()))
    return [
        "mail          "
        + ", ".join(f"{status} {counts[status]}" for status in sorted(counts))
        + f"; due now {due}"
    ]


def _failed_mail(session: Session) -> list[str]:
    return [
        f"mail {r.id:>8}  {r.created_at:%Y-%m-%d %H:%M}  {r.kind:<20} {r.to_address:<40} "
        f"tries {r.attempts}: {r.error or ''}"
        for r in mail.failed_mail(session)
    ]


async def _queue(url: str, command: str, job_id: int | None = None) -> tuple[int, list[str]]:
    app = queue.build_app(intervals={}, database_url=url)
    async with app.open_async():
        manager = app.job_manager
        if command == "retry":
            found = list(await manager.list_jobs_async(id=job_id, status="failed"))
            if not found:
                return 1, [f"Job {job_id} is not a failed job."]
            await manager.retry_job(found[0])
            return 0, [f"Job {job_id} ({found[0].task_name}) is queued again."]
        lines = []
        statuses = ("todo", "doing", "failed") if command == "list" else ("failed",)
        for status in statuses:
            for job in await manager.list_jobs_async(status=status):
                when = f"{job.scheduled_at:%Y-%m-%d %H:%M:%S}" if job.scheduled_at else "now"
                lines.append(
                    f"job  {job.id:>8}  {status:<7} {job.task_name:<14} attempts {job.attempts}"
                    f"  scheduled {when}"
                )
        return 0, lines or [
            f"No {'queued, running or failed' if command == 'list' else 'failed'} job."
        ]


def _run_round(name: str, when: str | None) -> int:
    """One round of the periodic job ``name`` in this process, under its lease."""
    if when:
        os.environ[clock.NOW_VAR] = when
        os.environ.pop(clock.SINCE_VAR, None)
        try:
            clock.set_now(None)  # read again: refused in production
        except clock.ClockSettingError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    job = next(j for j in periodic.PERIODIC if j.name == name)
    answers: list[object] = []

    async def one_round() -> None:
        answers.append(await job.run())

    if not asyncio.run(periodic.run_once(name, one_round)):
        print(f"{name}: another worker is running a round now; try again in a minute.")
        return 1
    at = clock.now().astimezone(clock.TORONTO).isoformat(timespec="minutes")
    done = answers[0] if answers else None
    counts = vars(done) if done is not None and hasattr(done, "__dict__") else {}
    shown = ", ".join(f"{key} {value}" for key, value in counts.items() if isinstance(value, int))
    outcome = f" ({shown})" if shown else ""
    print(f"{name}: one round ran at {at}{outcome}")
    return 0


def main(argv: list[str] | None = None) -> int:
    register_payment_purposes()
    parser, sub = command_parser("hotmeals.jobs", __doc__)
    sub.add_parser("list", help="the periodic jobs and the mail queue")
    sub.add_parser("failed", help="jobs and mail every retry failed")
    retry = sub.add_parser("retry", help="run a failed job again")
    retry.add_argument("id", type=int)
    retry_mail = sub.add_parser("retry-mail", help="send a FAILED mail again")
    retry_mail.add_argument("id", type=int)
    run = sub.add_parser("run", help="one round of a periodic job now, in this process")
    run.add_argument("job", choices=[job.name for job in periodic.PERIODIC])
    run.add_argument("--now", help="demo and tests: the clock's time for this run (HOTMEALS_NOW)")
    args = parser.parse_args(argv)
    url = database_url(args.url)
    if args.command == "run":
        if args.url:  # the jobs reach the database through the app's settings
            os.environ["DATABASE_URL"] = url
            get_settings.cache_clear()
            get_engine.cache_clear()
        return _run_round(args.job, args.now)
    on_queue = url.startswith("postgresql")
    status = 0
    lines: list[str] = []
    if on_queue and args.command in ("list", "failed", "retry"):
        status, lines = asyncio.run(_queue(url, args.command, getattr(args, "id", None)))
    elif args.command == "retry":
        print(
            "The embedded default has no job queue: its rounds run every interval.", file=sys.stderr
        )
        return 1
    with command_engine(url) as engine, Session(engine) as session:
        if args.command == "list":
            lines = (lines if on_queue else _leases(session)) + _mail(session)
        elif args.command == "failed":
            lines = [line for line in lines if not line.startswith("No ")]
            lines += _failed_mail(session)
            lines = lines or ["Nothing failed."]
        elif args.command == "retry-mail":
            if not mail.retry_failed(session, outbox_id=args.id):
                print(f"Mail {args.id} is not a FAILED mail.", file=sys.stderr)
                return 1
            session.commit()
            lines = [f"Mail {args.id} is due again; the mail job sends it within a minute."]
    print("\n".join(lines), file=sys.stderr if status else sys.stdout)
    return status


if __name__ == "__main__":
    sys.exit(main())
