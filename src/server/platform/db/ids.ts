import { v7 as uuidv7 } from "uuid";

/**
 * Ids are UUIDv7, made by the app rather than the database, so SQLite and PostgreSQL create
 * them the same way and they sort by creation time (a stable keyset tie-break).
 */
export function newId(): string {
  return uuidv7();
}
