import { describe, expect, it } from 'vitest';
import { BOOK_MESSAGES, readOneIsbn } from './book.ts';
import { ISBN_REJECTION } from './isbn.ts';

describe('readOneIsbn', () => {
  it.each([
    ['9780306406157', '9780306406157'],
    ['978-0-306-40615-7', '9780306406157'],
    ['0-306-40615-2', '9780306406157'],
    ['0306406152', '9780306406157'],
    ['9780306406157 51299', '9780306406157'],
    ['ISBN-10: 0306406152, ISBN-13: 9780306406157', '9780306406157'],
  ])('reads %s as %s', (text, isbn) => {
    expect(readOneIsbn(text)).toEqual({ isbn });
  });

  it.each([
    ['9780306406158', ISBN_REJECTION.isbn13Check],
    ['036000291452', ISBN_REJECTION.upc],
    ['hello', ISBN_REJECTION.notAnIsbn],
    ['', BOOK_MESSAGES.empty],
    ['  -  ', BOOK_MESSAGES.empty],
    ['9780306406157, 9780131457577', BOOK_MESSAGES.several],
  ])('refuses %j: %s', (text, reason) => {
    expect(readOneIsbn(text)).toEqual({ reason });
  });
});
