"""teams: every key, answer and flag belongs to one; what existed before goes to the default team

Revision ID: 0003_teams
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_teams"
down_revision = "0002"
branch_labels = None
depends_on = None

DEFAULT_TEAM = "default"  # legal_rag.roles.DEFAULT_TEAM as of this revision (a migration never changes)


def upgrade() -> None:
    for table in ("api_keys", "answers", "flags"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("team", sa.String(100), nullable=False, server_default=DEFAULT_TEAM))
            if table != "api_keys":
                batch.create_index(f"ix_{table}_team", ["team"])


def downgrade() -> None:
    for table in ("flags", "answers", "api_keys"):
        with op.batch_alter_table(table) as batch:
            if table != "api_keys":
                batch.drop_index(f"ix_{table}_team")
            batch.drop_column("team")
