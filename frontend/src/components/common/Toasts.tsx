// Where toasts appear (Mantine notifications), with their styles. main.tsx loads it lazily: the
// first page never waits for it, and toasts shown before it arrives wait in the notifications store.
import '@mantine/notifications/styles.layer.css';
import { Notifications } from '@mantine/notifications';

export function Toasts() {
  return <Notifications autoClose={5000} />;
}
