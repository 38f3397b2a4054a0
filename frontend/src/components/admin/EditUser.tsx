import { FORM_MODE } from '../../lib/form-mode';
import { Checkbox, Group, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updateUser } from '../../client/sdk.gen';
import type { UserPublic } from '../../client/types.gen';
import { TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { confirmPasswordRules, emailRules, passwordRules } from '../../lib/validation';
import { FormModal } from '../common/FormModal';
import { PasswordField } from '../common/PasswordField';
import { readUsersQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

interface EditUserForm {
  email: string;
  full_name: string;
  password: string;
  confirm_password: string;
  is_superuser: boolean;
  is_active: boolean;
  decisions_only: boolean;
}

/**
 * The PATCH body: an empty password means "keep the current one" and is left out (docs/requirements.md,
 * Admin).
 */
export function toUserUpdate({ confirm_password: _, password, ...rest }: EditUserForm) {
  return password === '' ? rest : { ...rest, password };
}

export function EditUser({ user, opened, onClose }: { user: UserPublic; opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset, formState } = useForm<EditUserForm>({
    mode: FORM_MODE,
    values: {
      email: user.email,
      full_name: user.full_name ?? '',
      password: '',
      confirm_password: '',
      is_superuser: user.is_superuser,
      is_active: user.is_active,
      decisions_only: user.decisions_only ?? false,
    },
  });
  const { errors } = formState;

  const close = () => {
    onClose();
    reset();
  };

  const mutation = useMutation({
    mutationFn: async (values: EditUserForm) => (await updateUser({ path: { user_id: user.id }, body: toUserUpdate(values) })).data,
    onSuccess: () => {
      showSuccess(TOAST.userUpdated);
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: everyCall(readUsersQueryKey) }),
  });

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Edit User"
      onSubmit={handleSubmit((v) => mutation.mutate(v))}
      submitDisabled={!formState.isDirty}
      loading={mutation.isPending}
    >
      <TextInput
        label="Email"
        placeholder="Email"
        type="email"
        withAsterisk
        error={errors.email?.message}
        {...register('email', emailRules)}
      />
      <TextInput label="Full Name" placeholder="Full Name" {...register('full_name')} />
      <PasswordField
        label="Password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password', passwordRules(false))}
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        error={errors.confirm_password?.message}
        {...register('confirm_password', confirmPasswordRules<EditUserForm>('password', false))}
      />
      <Group>
        <Checkbox label="Is superuser?" {...register('is_superuser')} />
        <Checkbox label="Is active?" {...register('is_active')} />
        <Checkbox label="Decisions only?" description="Scans show outcomes, never a price or profit" {...register('decisions_only')} />
      </Group>
    </FormModal>
  );
}
