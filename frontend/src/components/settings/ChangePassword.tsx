// "Password" tab: current, new and confirmation, all required.
import { FORM_MODE } from '../../lib/form-mode';
import { Button } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updatePasswordMe } from '../../client/sdk.gen';
import { TOAST } from '../../lib/messages';
import { showSuccess } from '../../lib/notify';
import { SettingsSection } from './SettingsSection';
import { setToken } from '../../lib/session';
import { passwordRules } from '../../lib/validation';
import { NewPasswordFields } from '../common/NewPasswordFields';
import { PasswordField } from '../common/PasswordField';

interface PasswordForm {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

export function ChangePassword() {
  const { register, handleSubmit, reset, formState } = useForm<PasswordForm>({
    mode: FORM_MODE,
    defaultValues: { current_password: '', new_password: '', confirm_password: '' },
  });
  const { errors } = formState;

  const mutation = useMutation({
    mutationFn: async ({ confirm_password: _, ...body }: PasswordForm) => (await updatePasswordMe({ body })).data,
    onSuccess: (data) => {
      // The change ended every older session, this one's token included: keep the fresh one.
      if (data?.access_token) setToken(data.access_token);
      showSuccess(TOAST.passwordUpdated);
      reset();
    },
  });

  return (
    <SettingsSection title="Change Password" onSubmit={handleSubmit((v) => mutation.mutate(v))}>
      <PasswordField
        label="Current Password"
        autoComplete="current-password"
        error={errors.current_password?.message}
        {...register('current_password', passwordRules())}
      />
      <NewPasswordFields register={register} errors={errors} passwordName="new_password" passwordLabel="New Password" />
      <div>
        <Button type="submit" loading={mutation.isPending}>
          Save
        </Button>
      </div>
    </SettingsSection>
  );
}
