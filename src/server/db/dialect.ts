/** The two databases the forum runs on. */
export type Dialect = 'sqlite' | 'postgres';
