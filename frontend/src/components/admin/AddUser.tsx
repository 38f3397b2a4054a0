import { FORM_MODE } from '../../lib/form-mode';
import { Button, Checkbox, Group, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { createUser } from '../../client/sdk.gen';
import { TOAST, VALIDATION } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { confirmPasswordRules, emailRules, passwordRules } from '../../lib/validation';
import { FormModal } from '../common/FormModal';
import { PasswordField } from '../common/PasswordField';
import { readUsersQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

interface AddUserForm {
  email: string;
  full_name: string;
  password: string;
  confirm_password: string;
  is_superuser: boolean;
  is_active: boolean;
  decisions_only: boolean;
}

const DEFAULTS: AddUserForm = {
  email: '',
  full_name: '',
  password: '',
  confirm_password: '',
  is_superuser: false,
  is_active: false,
  decisions_only: false,
};

export function AddUser() {
  const [opened, modal] = useDisclosure(false);
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset, formState } = useForm<AddUserForm>({ mode: FORM_MODE, defaultValues: DEFAULTS });
  const { errors } = formState;

  const close = () => {
    modal.close();
    reset();
  };

  const mutation = useMutation({
    mutationFn: async ({ confirm_password: _, ...body }: AddUserForm) => (await createUser({ body })).data,
    onSuccess: () => {
      showSuccess(TOAST.userCreated);
      close();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: everyCall(readUsersQueryKey) }),
  });

  return (
    <>
      <Button leftSection={<IconPlus size={16} />} onClick={modal.open}>
        Add User
      </Button>
      <FormModal
        opened={opened}
        onClose={close}
        title="Add User"
        onSubmit={handleSubmit((v) => mutation.mutate(v))}
        loading={mutation.isPending}
      >
        <TextInput
          label="Email"
          placeholder="Email"
          type="email"
          withAsterisk
          error={errors.email?.message}
          {...register('email', emailRules)}
          data-autofocus
        />
        <TextInput label="Full Name" placeholder="Full Name" {...register('full_name')} />
        <PasswordField
          label="Password"
          withAsterisk
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password', passwordRules())}
        />
        <PasswordField
          label="Confirm Password"
          withAsterisk
          autoComplete="new-password"
          error={errors.confirm_password?.message}
          {...register('confirm_password', confirmPasswordRules<AddUserForm>('password', VALIDATION.confirmRequiredAddUser))}
        />
        <Group>
          <Checkbox label="Is superuser?" {...register('is_superuser')} />
          <Checkbox label="Is active?" {...register('is_active')} />
          <Checkbox label="Decisions only?" description="Scans show outcomes, never a price or profit" {...register('decisions_only')} />
        </Group>
      </FormModal>
    </>
  );
}
