// "My profile" tab: full name (max 30) and email of the logged-in user.
import { FORM_MODE } from '../../lib/form-mode';
import { Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updateUserMe } from '../../client/sdk.gen';
import type { UserPublic } from '../../client/types.gen';
import { currentUserQuery } from '../../hooks/useCurrentUser';
import { LIMITS, TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { SettingsSection } from './SettingsSection';
import { emailRules } from '../../lib/validation';
import { TextField } from '../common/TextField';

interface ProfileForm {
  full_name: string;
  email: string;
}

export function UserInformation({ user }: { user: UserPublic }) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset, watch, formState } = useForm<ProfileForm>({
    mode: FORM_MODE,
    values: { full_name: user.full_name ?? '', email: user.email },
  });
  const email = watch('email');

  const mutation = useMutation({
    mutationFn: async (body: ProfileForm) => (await updateUserMe({ body })).data,
    onSuccess: (updated) => {
      queryClient.setQueryData(currentUserQuery.queryKey, updated);
      showSuccess(TOAST.userUpdated);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: ['users'] }),
      ]),
  });

  return (
    <SettingsSection title="User Information" onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      <TextField
        label="Full Name"
        maxLength={LIMITS.profileFullNameMax}
        error={formState.errors.full_name?.message}
        {...register('full_name', { maxLength: LIMITS.profileFullNameMax })}
      />
      <TextField label="Email" type="email" error={formState.errors.email?.message} {...register('email', emailRules)} />
      <Group>
        {/* Spec §5: Save disabled when unchanged or email empty. */}
        <Button type="submit" disabled={!formState.isDirty || !email} loading={mutation.isPending}>
          Save
        </Button>
        <Button variant="default" onClick={() => reset()} disabled={!formState.isDirty || mutation.isPending}>
          Cancel
        </Button>
      </Group>
    </SettingsSection>
  );
}
