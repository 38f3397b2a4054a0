// Row menu of the items table: edit dialog and delete confirmation for one item.
import { deleteItem } from '../../client/sdk.gen';
import type { ItemPublic } from '../../client/types.gen';
import { RecordActions } from '../common/RecordActions';
import { EditItem } from './EditItem';
import { readItemsQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

export function ItemActions({ item }: { item: ItemPublic }) {
  return (
    <RecordActions
      what="item"
      editDialog={(opened, onClose) => <EditItem item={item} opened={opened} onClose={onClose} />}
      deleteRecord={async () => (await deleteItem({ path: { id: item.id } })).data}
      confirmMessage="This item will be permanently deleted. Are you sure? You will not be able to undo this action."
      refetch={[everyCall(readItemsQueryKey)]}
    />
  );
}
