import { sql } from 'kysely';
import type { AppContext } from '../context.js';

interface Column {
  name: string;
  type: string;
  notNull: boolean;
  hasDefault: boolean;
  pk: boolean;
}

/**
 * Puts one row into every table of the database that has none, whoever owns it: a backup's
 * round trip must carry every table, and a forum's tests reach only some through services.
 * Values come from the catalogue: a foreign key takes an existing row's key, a number a fresh
 * number, text a fresh word. Returns the tables it filled.
 */
export async function fillEmptyTables(ctx: AppContext, skip: ReadonlySet<string>): Promise<string[]> {
  const filled: string[] = [];
  const tables = (await ctx.db.introspection.getTables()).filter((t) => !skip.has(t.name) && !t.isView);
  let n = 1000;
  // Parents first: repeat until a pass fills nothing more.
  for (let pass = 0; pass < 6; pass++) {
    let progress = false;
    for (const t of tables) {
      const count = Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(t.name)}`.execute(ctx.db)).rows[0]!.n);
      if (count > 0) continue;
      const cols = await columns(ctx, t.name);
      const fks = await foreignKeys(ctx, t.name);
      const row: Record<string, unknown> = {};
      let missingParent = false;
      for (const c of cols) {
        const fk = fks.get(c.name);
        if (fk) {
          const parent = (await sql<{ v: unknown }>`SELECT ${sql.ref(fk.column)} AS v FROM ${sql.table(fk.table)} LIMIT 1`.execute(ctx.db)).rows[0];
          if (!parent) {
            missingParent = true;
            break;
          }
          row[c.name] = parent.v;
        } else if (c.pk && cols.filter((x) => x.pk).length === 1 && (ctx.dialect === 'sqlite' ? /^integer$/i.test(c.type) : c.hasDefault)) {
          // A single numbered key (SQLite's rowid, PostgreSQL's serial or identity): the database numbers it.
        } else if (c.notNull || !c.hasDefault) {
          n += 1;
          row[c.name] = /int|real|double|numeric|serial/i.test(c.type) ? n : `v${n}`;
        }
      }
      if (missingParent) continue;
      await ctx.db
        .insertInto(t.name as never)
        .values(row as never)
        .execute();
      filled.push(t.name);
      progress = true;
    }
    if (!progress) break;
  }
  return filled;
}

async function columns(ctx: AppContext, table: string): Promise<Column[]> {
  if (ctx.dialect === 'sqlite') {
    const rows = (
      await sql<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: unknown;
        pk: number;
        hidden: number;
      }>`SELECT * FROM pragma_table_xinfo(${table})`.execute(ctx.db)
    ).rows;
    return rows
      .filter((r) => r.hidden === 0)
      .map((r) => ({ name: r.name, type: r.type, notNull: r.notnull === 1, hasDefault: r.dflt_value !== null, pk: r.pk > 0 }));
  }
  const rows = (
    await sql<{ name: string; type: string; nullable: string; dflt: string | null; generated: string; pk: boolean }>`
      SELECT c.column_name AS name, c.data_type AS type, c.is_nullable AS nullable, c.column_default AS dflt, c.is_generated AS generated,
        EXISTS (SELECT 1 FROM information_schema.key_column_usage k JOIN information_schema.table_constraints tc ON tc.constraint_name = k.constraint_name AND tc.table_schema = k.table_schema
                 WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name AND k.column_name = c.column_name AND k.table_schema = c.table_schema) AS pk
      FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ${table} ORDER BY c.ordinal_position`.execute(ctx.db)
  ).rows;
  return rows
    .filter((r) => r.generated !== 'ALWAYS')
    .map((r) => ({ name: r.name, type: r.type, notNull: r.nullable === 'NO', hasDefault: r.dflt !== null, pk: r.pk }));
}

async function foreignKeys(ctx: AppContext, table: string): Promise<Map<string, { table: string; column: string }>> {
  if (ctx.dialect === 'sqlite') {
    const rows = (await sql<{ from: string; table: string; to: string }>`SELECT "from", "table", "to" FROM pragma_foreign_key_list(${table})`.execute(ctx.db))
      .rows;
    return new Map(rows.map((r) => [r.from, { table: r.table, column: r.to }]));
  }
  const rows = (
    await sql<{ from: string; table: string; to: string }>`
      SELECT a.attname AS "from", f.relname AS "table", fa.attname AS "to"
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class f ON f.oid = c.confrelid
      CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, fcol)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
      JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fcol
      WHERE c.contype = 'f' AND t.relname = ${table} AND t.relnamespace = current_schema()::regnamespace`.execute(ctx.db)
  ).rows;
  return new Map(rows.map((r) => [r.from, { table: r.table, column: r.to }]));
}
