// Keyset paging of an ordered query: each page starts after the last row of the one before
// (WHERE (key, id) > (its key, its id)), so each page is a short statement that an index on
// (key, id) can start in the middle of, where OFFSET read and sorted every row before it again.
// The order is the list's own (lib/filter-sql.ts sortKeys): one key or none, then the unique id,
// both in one direction. A row comparison never matches NULL, so a nullable key runs in two
// stretches, its NULL rows (ordered by id) before or after the others as the ORDER BY puts them.
// Each stretch is read in its own order (orderBy): `key DESC NULLS LAST` is the list's order, but
// PostgreSQL serves it from a (key, id) index only without the NULLS clause, which within a stretch
// changes nothing; with it, every page sorted all the rows left (issue 16: a 150k-row CSV sorted by
// price on PGlite, 3.8 s).
import { sql, type SQL } from 'drizzle-orm';
import { orderBySql, type SortKey } from '../lib/filter-sql.ts';

/** The cursor's columns in each row: the key and the id as PostgreSQL writes them (exact text). */
const KEY = '__keyset_key';
const ID = '__keyset_id';

type Row = Record<string, unknown>;

export class Keyset {
  private readonly key: SortKey | undefined;
  private readonly id: SortKey;
  /** The stretches in output order: NULL keys (`true`) or the others, or one stretch of every row. */
  private readonly stretches: (boolean | undefined)[];
  private stretch = 0;
  private after: { key: string | null; id: string } | undefined;

  constructor(keys: readonly SortKey[]) {
    const id = keys.at(-1);
    if (id?.column !== 'id' || keys.length > 2 || keys.some((k) => k.direction !== id.direction)) {
      throw new Error('A keyset needs at most one key and then the id, in one direction');
    }
    this.id = id;
    this.key = keys.length === 2 ? keys[0] : undefined;
    if (!this.key?.nullable) this.stretches = [undefined];
    else {
      // PostgreSQL's default puts NULLs first only descending; the list writes NULLS LAST where it wants them last.
      const nullsFirst = !this.key.nulls && this.key.direction === 'desc';
      this.stretches = nullsFirst ? [true, false] : [false, true];
    }
  }

  /** The cursor's columns, to select beside the row's own. */
  get columns(): SQL {
    const id = sql`${sql.identifier(this.id.column)}::text AS ${sql.identifier(ID)}`;
    return this.key ? sql`${sql.identifier(this.key.column)}::text AS ${sql.identifier(KEY)}, ${id}` : id;
  }

  /**
   * The current stretch's order: the key then the id, or the id alone among NULL keys; no NULLS
   * clause, so an index on (key, id) walked either way gives it.
   */
  orderBy(): SQL {
    const keys = !this.key || this.stretches[this.stretch] === true ? [this.id] : [this.key, this.id];
    return orderBySql(keys.map(({ nulls: _, ...key }) => key));
  }

  /** The next page's condition; undefined once every stretch has been read. */
  next(): SQL | undefined {
    if (this.stretch >= this.stretches.length) return undefined;
    const isNull = this.stretches[this.stretch];
    const parts: SQL[] = [];
    if (this.key && isNull !== undefined) parts.push(sql`${sql.identifier(this.key.column)} IS ${sql.raw(isNull ? '' : 'NOT ')}NULL`);
    if (this.after) {
      const op = sql.raw(this.id.direction === 'asc' ? '>' : '<');
      const id = sql.identifier(this.id.column);
      // The parameters are the cursor's text; PostgreSQL reads them as the columns' own types.
      if (this.key && !isNull) parts.push(sql`(${sql.identifier(this.key.column)}, ${id}) ${op} (${this.after.key}, ${this.after.id})`);
      else parts.push(sql`${id} ${op} ${this.after.id}`);
    }
    return parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`;
  }

  /**
   * Rows up to `last` (inclusive) in the current stretch: the page whose last row it is. Undefined
   * (the rest of the stretch) when there is no such row: the stretch ends within the page.
   */
  upTo(last: Row | undefined): SQL | undefined {
    if (!last) return undefined;
    const op = sql.raw(this.id.direction === 'asc' ? '<=' : '>=');
    const id = sql.identifier(this.id.column);
    const lastId = String(last[ID]);
    if (this.key && !this.stretches[this.stretch]) {
      return sql`(${sql.identifier(this.key.column)}, ${id}) ${op} (${last[KEY] as string}, ${lastId})`;
    }
    return sql`${id} ${op} ${lastId}`;
  }

  /** Takes in a page read with next()'s condition: ended at `last`, or short (its stretch is done). */
  advance(last: Row | undefined): void {
    if (!last) {
      this.stretch += 1;
      this.after = undefined;
      return;
    }
    this.after = { key: this.key ? ((last[KEY] as string | null) ?? null) : null, id: String(last[ID]) };
  }
}
