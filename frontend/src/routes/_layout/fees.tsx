import { createFileRoute } from '@tanstack/react-router';
import { FeesPage } from '../../components/fees/FeesPage';

export const Route = createFileRoute('/_layout/fees')({
  component: FeesPage,
});
