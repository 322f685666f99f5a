#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Derives MLflow's PostgreSQL tracking schema from its SQLite one (core/schema/*.sql).

MLflow creates both from the same SQLAlchemy models and alembic migrations; the differences are
the dialect's type names: the auto-incremented experiment id is SERIAL, Float(53) is double
precision, Boolean is a native boolean (no CHECK (x IN (0, 1)) emulation), LargeBinary is bytea.
Run it again when the SQLite schema file changes:

    python3 resources/mlflow_postgresql_schema.py core/schema/mlflow_sqlite_<rev>.sql > core/schema/mlflow_postgresql_<rev>.sql
"""
import re
import sys


def convert(sql):
    out = []
    lines = sql.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("--"):
            out.append(line.replace("MLflow SQLite tracking schema", "MLflow PostgreSQL tracking schema")
                       .replace("as MLflow itself created it", "derived by resources/mlflow_postgresql_schema.py"))
            continue
        check = re.match(r"\s*(?:CONSTRAINT \w+ )?CHECK \(\w+ IN \(0, 1\)\)\s*(,?)\s*$", line)
        if check:
            # SQLite's emulated boolean: drop the check, and the comma before it when it was last.
            if not check.group(1):
                out[-1] = out[-1].rstrip().rstrip(",")
            continue
        line = re.sub(r'CREATE TABLE IF NOT EXISTS "(\w+)"', r"CREATE TABLE \1", line)
        line = re.sub(r"\bFLOAT\b", "FLOAT(53)", line)
        line = re.sub(r"\bBLOB\b", "BYTEA", line)
        line = re.sub(r"BOOLEAN DEFAULT '0'", "BOOLEAN DEFAULT false", line)
        out.append(line)
    text = "\n".join(out) + "\n"
    # SQLite's trigger syntax becomes a PL/pgSQL function plus trigger, as MLflow's migration
    # creates on PostgreSQL.
    text = re.sub(
        r"CREATE TRIGGER (\w+)\nBEFORE UPDATE ON (\w+)\nFOR EACH ROW\nWHEN (.*?)\nBEGIN\n\s*SELECT RAISE\(ABORT, '(.*?)'\);\nEND;",
        lambda m: ("CREATE FUNCTION {0}_fn() RETURNS trigger AS $$\nBEGIN\n"
                   "    RAISE EXCEPTION '{3}';\nEND;\n$$ LANGUAGE plpgsql;\n"
                   "CREATE TRIGGER {0}\nBEFORE UPDATE ON {1}\nFOR EACH ROW\nWHEN ({2})\n"
                   "EXECUTE FUNCTION {0}_fn();").format(m.group(1), m.group(2), m.group(3), m.group(4)),
        text, flags=re.S)
    # experiments.experiment_id is autoincremented by MLflow (sa.Integer, autoincrement=True).
    text = re.sub(r"(CREATE TABLE experiments \(\s*experiment_id) INTEGER NOT NULL", r"\1 SERIAL NOT NULL", text)
    return in_dependency_order(text)


def in_dependency_order(text):
    """Tables before the tables whose foreign keys name them, then everything else in its order.

    SQLite keeps tables in the order migrations last rebuilt them (MLflow 3 has experiment_tags
    before experiments); PostgreSQL checks a foreign key's table when the key is created."""
    header = [line for line in text.splitlines() if line.startswith("--")]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("--"))
    # Statements end with ';' at a line end, except inside a $$ function body.
    statements, current, in_body = [], [], False
    for line in body.splitlines():
        current.append(line)
        if line.count("$$") % 2:
            in_body = not in_body
        if not in_body and line.rstrip().endswith(";"):
            statements.append("\n".join(current))
            current = []
    if current and "".join(current).strip():
        statements.append("\n".join(current))
    tables, others = {}, []
    for statement in statements:
        m = re.match(r"\s*CREATE TABLE (\w+)", statement)
        if m:
            tables[m.group(1)] = statement
        else:
            others.append(statement)
    ordered, done = [], set()

    def visit(name, path=()):
        if name in done or name not in tables:
            return
        if name in path:
            raise SystemExit("foreign keys form a cycle through " + name)
        for ref in re.findall(r"REFERENCES (\w+)", tables[name]):
            if ref != name:
                visit(ref, path + (name,))
        done.add(name)
        ordered.append(tables[name])

    for name in tables:
        visit(name)
    return "\n".join(header + ordered + others) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        sys.stdout.write(convert(f.read()))
