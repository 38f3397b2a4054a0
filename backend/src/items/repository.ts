// Items in the database: users see and change their own, superusers all.
import { must } from '@app/domain/must';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { ownedBy } from '../db/owned-by.ts';
import type { Page } from '../db/page.ts';
import { items } from '../db/schema.ts';
import type { UserRow } from '../users/schemas.ts';

export type ItemRow = typeof items.$inferSelect;
type ItemPatch = Partial<Pick<typeof items.$inferInsert, 'title' | 'description'>>;

/** The item when the user may see it. */
export async function findVisibleItem(db: Db, user: UserRow, id: string): Promise<ItemRow | undefined> {
  const [row] = await db
    .select()
    .from(items)
    .where(and(eq(items.id, id), ownedBy(items.owner_id, user)));
  return row;
}

export async function listItems(db: Db, user: UserRow, page: Page): Promise<{ data: ItemRow[]; count: number }> {
  const where = ownedBy(items.owner_id, user);
  const [data, counted] = await Promise.all([
    db.select().from(items).where(where).orderBy(desc(items.created_at), items.id).offset(page.skip).limit(page.limit),
    db.select({ n: count() }).from(items).where(where),
  ]);
  return { data, count: Number(counted[0]?.n ?? 0) };
}

export async function createItem(db: Db, owner: UserRow, input: { title: string; description?: string | null }): Promise<ItemRow> {
  const [row] = await db
    .insert(items)
    .values({ title: input.title, description: input.description ?? null, owner_id: owner.id })
    .returning();
  return must(row, 'the written item comes back');
}

export async function updateItem(db: Db, id: string, patch: ItemPatch): Promise<ItemRow> {
  const [row] = await db.update(items).set(patch).where(eq(items.id, id)).returning();
  return must(row, 'the written item comes back');
}

export async function deleteItem(db: Db, id: string): Promise<void> {
  await db.delete(items).where(eq(items.id, id));
}
