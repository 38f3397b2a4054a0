// Row menu of the users table: edit dialog and delete confirmation for one user.
import { deleteUser } from '../../client/sdk.gen';
import type { UserPublic } from '../../client/types.gen';
import { RecordActions } from '../common/RecordActions';
import { EditUser } from './EditUser';
import { readItemsQueryKey, readUsersQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

export function UserActions({ user, disabled }: { user: UserPublic; disabled: boolean }) {
  return (
    <RecordActions
      what="user"
      disabled={disabled}
      editDialog={(opened, onClose) => <EditUser user={user} opened={opened} onClose={onClose} />}
      deleteRecord={async () => (await deleteUser({ path: { user_id: user.id } })).data}
      confirmMessage="All items associated with this user will also be permanently deleted. Are you sure? You will not be able to undo this action."
      // The user's items went with them.
      refetch={[everyCall(readUsersQueryKey), everyCall(readItemsQueryKey)]}
    />
  );
}
