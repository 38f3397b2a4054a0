// A book's own page: reached from any ISBN cell and the header's search box.
import { createFileRoute } from '@tanstack/react-router';
import { BookPage } from '../../components/book/BookPage';

export const Route = createFileRoute('/_layout/books/$isbn')({
  component: () => <BookPage isbn={Route.useParams().isbn} />,
});
