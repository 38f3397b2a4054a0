// Toasts (Mantine notifications). showApiError is the single error → toast path (docs/requirements.md,
// Errors and toasts).
import { notifications } from '@mantine/notifications';
import { errorToastMessage } from './errors';
import { TOAST } from './messages';

export function showSuccess(message: string, title: string = TOAST.successTitle): void {
  notifications.show({ title, message, color: 'green' });
}

export function showError(message: string, title: string = TOAST.errorTitle): void {
  notifications.show({ title, message, color: 'red' });
}

export function showApiError(error: unknown): void {
  showError(errorToastMessage(error));
}
