// "My profile" tab: full name (max 30) and email of the logged-in user, shown as text with an Edit
// button; Edit makes them fields with Save and Cancel, and Cancel puts back what was there (the
// template's users, and its own tests, expect this read-then-edit profile).
import { FORM_MODE } from '../../lib/form-mode';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
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
import { readUsersQueryKey } from '../../client/@tanstack/react-query.gen';
import { everyCall } from '../../lib/query-keys';

interface ProfileForm {
  full_name: string;
  email: string;
}

export function UserInformation({ user }: { user: UserPublic }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
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
      setEditing(false);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: everyCall(readUsersQueryKey) }),
      ]),
  });

  const cancel = () => {
    reset();
    setEditing(false);
  };

  if (!editing)
    return (
      <SettingsSection title="User Information" onSubmit={(e) => e.preventDefault()}>
        <ProfileValue label="Full Name" value={user.full_name} />
        <ProfileValue label="Email" value={user.email} />
        <Group>
          <Button onClick={() => setEditing(true)}>Edit</Button>
        </Group>
      </SettingsSection>
    );

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
        {/* Save disabled when unchanged or email empty. */}
        <Button type="submit" disabled={!formState.isDirty || !email} loading={mutation.isPending}>
          Save
        </Button>
        <Button variant="default" onClick={cancel} disabled={mutation.isPending}>
          Cancel
        </Button>
      </Group>
    </SettingsSection>
  );
}

/** A profile value read, not edited: its label above it, "N/A" when empty. */
function ProfileValue({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Text c={value ? undefined : 'dimmed'}>{value || 'N/A'}</Text>
    </Stack>
  );
}
