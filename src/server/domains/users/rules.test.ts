import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { takenError } from '../../core/unique.js';
import { coerceSettings } from './rules.js';

/** The error SQLite itself raises for a duplicate, with the users table's unique indexes. */
function sqliteDuplicate(column: 'username' | 'email' | 'userslug'): unknown {
  const db = new SQLite(':memory:');
  db.exec('create table users (uid integer primary key, username text, userslug text unique, email text)');
  db.exec('create unique index users_email on users (email)');
  db.exec('create unique index users_username_lower on users (lower(username))');
  db.prepare('insert into users (username, userslug, email) values (?, ?, ?)').run('Ann', 'ann', 'ann@example.com');
  const dup = { username: ['ANN', 'other', 'x@example.com'], email: ['Bob', 'bob', 'ann@example.com'], userslug: ['Ann2', 'ann', 'y@example.com'] }[column];
  try {
    db.prepare('insert into users (username, userslug, email) values (?, ?, ?)').run(...dup);
  } catch (err) {
    return err;
  } finally {
    db.close();
  }
  throw new Error('no violation');
}

describe('takenError', () => {
  it("maps SQLite's unique violations on users to the taken keys", () => {
    expect(takenError(sqliteDuplicate('username'))?.key).toBe('error:username-taken');
    expect(takenError(sqliteDuplicate('userslug'))?.key).toBe('error:username-taken');
    expect(takenError(sqliteDuplicate('email'))?.key).toBe('error:email-taken');
  });

  it("maps PostgreSQL's 23505 by constraint name", () => {
    expect(takenError({ code: '23505', constraint: 'users_email', message: 'duplicate key' })?.key).toBe('error:email-taken');
    expect(takenError({ code: '23505', constraint: 'users_username_lower', message: 'duplicate key' })?.status).toBe(400);
  });

  it('leaves other errors alone', () => {
    expect(takenError(new Error('boom'))).toBeNull();
    expect(takenError({ code: '23505', constraint: 'topics_pk', message: 'duplicate key' })).toBeNull();
    expect(takenError(null)).toBeNull();
  });
});

describe('coerceSettings', () => {
  it('turns NodeBB strings into the settings types and drops unknown keys', () => {
    expect(
      coerceSettings({
        showemail: '1',
        showfullname: '0',
        topicsPerPage: '35',
        usePagination: 'true',
        other: 'x',
        ...(JSON.parse('{"constructor": "y"}') as object),
      }),
    ).toEqual({
      showemail: true,
      showfullname: false,
      topicsPerPage: 35,
      usePagination: true,
    });
    expect(coerceSettings({ showemail: false, postsPerPage: 15, openSidebars: 'on' })).toEqual({ showemail: false, postsPerPage: 15, openSidebars: 'on' });
  });

  it('refuses values that are not of the type', () => {
    for (const bad of [{ showemail: 'maybe' }, { topicsPerPage: 'many' }, { topicsPerPage: '1e309' }, { openSidebars: 1 }]) {
      expect(() => coerceSettings(bad), JSON.stringify(bad)).toThrow(expect.objectContaining({ key: 'error:invalid-data' }));
    }
  });
});
