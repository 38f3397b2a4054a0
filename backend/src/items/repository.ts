// Items in the database: users see and change their own, superusers all.
import { must } from '@app/domain/must';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { items } from '../db/schema.ts';
import type { UserRow } from '../users/schemas.ts';

export type ItemRow = typeof items.$inferSelect;
type ItemPatch = Partial<Pick<typeof items.$inferInsert, 'title' | 'description'>>;

const visibleTo = (user: UserRow): SQL | undefined => (user.is_superuser ? undefined : eq(items.owner_id, user.id));

export class ItemsRepository {
  constructor(private readonly db: Db) {}

  /** The item when the user may see it. */
  async findVisible(user: UserRow, id: string): Promise<ItemRow | undefined> {
    const [row] = await this.db
      .select()
      .from(items)
      .where(and(eq(items.id, id), visibleTo(user)));
    return row;
  }

  async list(user: UserRow, skip: number, limit: number): Promise<{ data: ItemRow[]; count: number }> {
    const where = visibleTo(user);
    const [data, counted] = await Promise.all([
      this.db.select().from(items).where(where).orderBy(desc(items.created_at), items.id).offset(skip).limit(limit),
      this.db.select({ n: count() }).from(items).where(where),
    ]);
    return { data, count: Number(counted[0]?.n ?? 0) };
  }

  async create(owner: UserRow, input: { title: string; description?: string | null }): Promise<ItemRow> {
    const [row] = await this.db
      .insert(items)
      .values({ title: input.title, description: input.description ?? null, owner_id: owner.id })
      .returning();
    return must(row, 'the written item comes back');
  }

  async update(id: string, patch: ItemPatch): Promise<ItemRow> {
    const [row] = await this.db.update(items).set(patch).where(eq(items.id, id)).returning();
    return must(row, 'the written item comes back');
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(items).where(eq(items.id, id));
  }
}
