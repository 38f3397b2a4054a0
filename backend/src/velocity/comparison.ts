// The velocity fields of the comparison (docs/features/velocity.md): book_velocity joined on the
// row's ISBN, its columns named as VELOCITY_FIELDS, so the comparison's filters, sorts, rules and CSV
// read them like any other column. Kept apart from comparison/query.ts, which only splices these in.
import { VELOCITY_FIELDS } from '@app/domain/velocity';
import { sql, type SQL } from 'drizzle-orm';
import { bookVelocity } from '../db/schema.ts';

const ALIAS = sql.identifier('bv');

/** Level-1 SELECT items (`bv.<stored> AS <field>`) and the LEFT JOIN on the row's ISBN. */
export function velocityJoin(isbn: SQL): { columns: SQL; join: SQL } {
  return {
    columns: sql.join(
      VELOCITY_FIELDS.map((f) => {
        const value = sql`${ALIAS}.${sql.identifier(f.stored)}`;
        return sql`${f.type === 'number' ? sql`${value}::double precision` : sql`${value}::text`} AS ${sql.identifier(f.name)}`;
      }),
      sql`, `,
    ),
    join: sql` LEFT JOIN ${bookVelocity} AS ${ALIAS} ON ${ALIAS}.isbn = ${isbn}`,
  };
}

/** The outer level's names of the velocity fields. */
export const VELOCITY_OUTPUTS: SQL[] = VELOCITY_FIELDS.map((f) => sql`${sql.identifier(f.name)}`);
