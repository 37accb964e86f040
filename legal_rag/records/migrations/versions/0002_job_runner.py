"""jobs: the worker running a job and its attempts; room for the state succeeded_with_rejects

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.alter_column("state", type_=sa.String(32), existing_type=sa.String(20), existing_nullable=False)
        batch.add_column(sa.Column("runner", sa.String(200), nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("jobs") as batch:
        batch.drop_column("attempts")
        batch.drop_column("runner")
        batch.alter_column("state", type_=sa.String(20), existing_type=sa.String(32), existing_nullable=False)
