// Items: users see and change their own, superusers all. Someone else's item is "not found",
// not "forbidden": it neither reveals that the item exists nor logs the user out (the UI treats 403 as a bad session).
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';
import { items } from '../db/schema.ts';
import { currentUser } from '../users/current-user.ts';
import { createSelectSchema } from 'drizzle-zod';
import { notFound } from '../lib/http-errors.ts';
import { HttpErrorBody, Message, Paging } from '../lib/api-schemas.ts';
import type { UserRow } from '../users/schemas.ts';
import { type ItemRow, createItem, deleteItem, findVisibleItem, listItems, updateItem } from './repository.ts';

const Title = z.string().trim().min(1, 'Title is required').max(255);
const Description = z.string().max(255).nullish();
const ItemCreate = z.object({ title: Title, description: Description }).meta({ id: 'ItemCreate' });
const ItemUpdate = z.object({ title: Title.optional(), description: Description }).meta({ id: 'ItemUpdate' });
// The columns of the items table the API shows (drizzle-zod).
const ItemPublic = createSelectSchema(items).pick({ id: true, title: true, description: true, owner_id: true }).meta({ id: 'ItemPublic' });
const ItemsPublic = z.object({ data: z.array(ItemPublic), count: z.number().int() }).meta({ id: 'ItemsPublic' });
const IdParam = z.object({ id: z.string().uuid('Invalid item id') });
const tags = ['items'];

const pick = ({ id, title, description, owner_id }: ItemRow) => ({ id, title, description, owner_id });

export function itemRoutes(app: App, ctx: AppContext): void {
  async function findVisible(user: UserRow, id: string) {
    const row = await findVisibleItem(ctx.db, user, id);
    if (!row) throw notFound('Item');
    return row;
  }

  app.get('/items/', {
    schema: { operationId: 'readItems', tags, querystring: Paging, response: { 200: ItemsPublic } },
    handler: async (req) => {
      const { data, count } = await listItems(ctx.db, currentUser(req), req.query);
      return { data: data.map(pick), count };
    },
  });

  app.post('/items/', {
    schema: { operationId: 'createItem', tags, body: ItemCreate, response: { 200: ItemPublic } },
    handler: async (req) => {
      return pick(await createItem(ctx.db, currentUser(req), req.body));
    },
  });

  app.get('/items/:id', {
    schema: { operationId: 'readItem', tags, params: IdParam, response: { 200: ItemPublic, 404: HttpErrorBody } },
    handler: async (req) => pick(await findVisible(currentUser(req), req.params.id)),
  });

  app.put('/items/:id', {
    schema: { operationId: 'updateItem', tags, params: IdParam, body: ItemUpdate, response: { 200: ItemPublic, 404: HttpErrorBody } },
    handler: async (req) => {
      await findVisible(currentUser(req), req.params.id);
      const patch = Object.fromEntries(Object.entries(req.body).filter(([, v]) => v !== undefined));
      if (Object.keys(patch).length === 0) return pick(await findVisible(currentUser(req), req.params.id));
      return pick(await updateItem(ctx.db, req.params.id, patch));
    },
  });

  app.delete('/items/:id', {
    schema: { operationId: 'deleteItem', tags, params: IdParam, response: { 200: Message, 404: HttpErrorBody } },
    handler: async (req) => {
      await findVisible(currentUser(req), req.params.id);
      await deleteItem(ctx.db, req.params.id);
      return { message: 'Item deleted successfully' };
    },
  });
}
