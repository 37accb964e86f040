"""answers, flags, jobs and API keys

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("revoked_at", TS, nullable=True),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("key_name", sa.String(100), nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("as_of", sa.String(10), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("generator", sa.String(40), nullable=False),
        sa.Column("confidence", sa.Float, nullable=True),
        sa.Column("index_version", sa.Integer, nullable=False),
        sa.Column("document", sa.JSON, nullable=False),
    )
    op.create_table(
        "flags",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("answer_id", sa.String(36), sa.ForeignKey("answers.id", ondelete="CASCADE"), nullable=False),
        sa.Column("start", sa.Integer, nullable=False),
        sa.Column("end", sa.Integer, nullable=False),
        sa.Column("span_text", sa.Text, nullable=False),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("comment", sa.Text, nullable=True),
        sa.Column("correction", sa.Text, nullable=True),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("key_name", sa.String(100), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("reviewed_at", TS, nullable=True),
        sa.Column("reviewed_by", sa.String(100), nullable=True),
        sa.UniqueConstraint("key_name", "idempotency_key", name="uq_flags_idempotency"),
    )
    op.create_index("ix_flags_answer_id", "flags", ["answer_id"])
    op.create_index("ix_flags_created_at", "flags", ["created_at"])
    op.create_table(
        "jobs",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("stage", sa.String(40), nullable=True),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("params", sa.JSON, nullable=False),
        sa.Column("report", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("key_name", sa.String(100), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("jobs")
    op.drop_index("ix_flags_created_at", "flags")
    op.drop_index("ix_flags_answer_id", "flags")
    op.drop_table("flags")
    op.drop_table("answers")
    op.drop_table("api_keys")
