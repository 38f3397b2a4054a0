// Items: users see and change their own, superusers all. Someone else's item is "not found",
// not "forbidden": it neither reveals that the item exists nor logs the user out (the UI treats 403 as a bad session).
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { App, AppContext } from '../context.ts';
import { items } from '../db/schema.ts';
import { SECURITY, authGuards, currentUser } from '../auth/current-user.ts';
import { HttpError } from '../lib/http-errors.ts';
import { HttpErrorBody, Message, Paging } from '../lib/api-schemas.ts';
import type { UserRow } from '../users/schemas.ts';
import { must } from '@app/domain/must';

const Title = z.string().trim().min(1, 'Title is required').max(255);
const Description = z.string().max(255).nullish();
const ItemCreate = z.object({ title: Title, description: Description }).meta({ id: 'ItemCreate' });
const ItemUpdate = z.object({ title: Title.optional(), description: Description }).meta({ id: 'ItemUpdate' });
const ItemPublic = z
  .object({ id: z.string().uuid(), title: z.string(), description: z.string().nullable(), owner_id: z.string().uuid() })
  .meta({ id: 'ItemPublic' });
const ItemsPublic = z.object({ data: z.array(ItemPublic), count: z.number().int() }).meta({ id: 'ItemsPublic' });
const IdParam = z.object({ id: z.string().uuid('Invalid item id') });
const tags = ['items'];

const visibleTo = (user: UserRow): SQL | undefined => (user.is_superuser ? undefined : eq(items.owner_id, user.id));
const pick = ({ id, title, description, owner_id }: typeof items.$inferSelect) => ({ id, title, description, owner_id });

export function itemRoutes(app: App, ctx: AppContext): void {
  const { requireUser } = authGuards(ctx);
  const orm = ctx.db.orm;

  async function findVisible(user: UserRow, id: string) {
    const [row] = await orm.select().from(items).where(and(eq(items.id, id), visibleTo(user)));
    if (!row) throw new HttpError(404, 'Item not found');
    return row;
  }

  app.get('/items/', {
    schema: { operationId: 'readItems', tags, security: SECURITY, querystring: Paging, response: { 200: ItemsPublic } },
    onRequest: requireUser,
    handler: async (req) => {
      const where = visibleTo(currentUser(req));
      const [data, counted] = await Promise.all([
        orm.select().from(items).where(where).orderBy(desc(items.created_at), items.id).offset(req.query.skip).limit(req.query.limit),
        orm.select({ n: count() }).from(items).where(where),
      ]);
      return { data: data.map(pick), count: Number(must(counted[0], 'count() returns a row').n) };
    },
  });

  app.post('/items/', {
    schema: { operationId: 'createItem', tags, security: SECURITY, body: ItemCreate, response: { 200: ItemPublic } },
    onRequest: requireUser,
    handler: async (req) => {
      const [row] = await orm
        .insert(items)
        .values({ title: req.body.title, description: req.body.description ?? null, owner_id: currentUser(req).id })
        .returning();
      return pick(must(row, 'INSERT … RETURNING gives the row'));
    },
  });

  app.get('/items/:id', {
    schema: { operationId: 'readItem', tags, security: SECURITY, params: IdParam, response: { 200: ItemPublic, 404: HttpErrorBody } },
    onRequest: requireUser,
    handler: async (req) => pick(await findVisible(currentUser(req), req.params.id)),
  });

  app.put('/items/:id', {
    schema: { operationId: 'updateItem', tags, security: SECURITY, params: IdParam, body: ItemUpdate, response: { 200: ItemPublic, 404: HttpErrorBody } },
    onRequest: requireUser,
    handler: async (req) => {
      await findVisible(currentUser(req), req.params.id);
      const patch = Object.fromEntries(Object.entries(req.body).filter(([, v]) => v !== undefined));
      if (Object.keys(patch).length === 0) return pick(await findVisible(currentUser(req), req.params.id));
      const [row] = await orm.update(items).set(patch).where(eq(items.id, req.params.id)).returning();
      return pick(must(row, 'a visible item, found above'));
    },
  });

  app.delete('/items/:id', {
    schema: { operationId: 'deleteItem', tags, security: SECURITY, params: IdParam, response: { 200: Message, 404: HttpErrorBody } },
    onRequest: requireUser,
    handler: async (req) => {
      await findVisible(currentUser(req), req.params.id);
      await orm.delete(items).where(eq(items.id, req.params.id));
      return { message: 'Item deleted successfully' };
    },
  });
}
