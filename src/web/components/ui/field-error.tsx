/** A form field's error: the field points at it (aria-describedby) and says it is invalid. */

/** The attributes of a field `id` whose error is `error` (none when it has none). */
export function invalidProps(id: string, error: string | undefined) {
  return { "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined } as const;
}

/** The error under field `id`, when it has one. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className="text-sm text-red-700">
      {error}
    </p>
  );
}

/** A failure of the whole form (not of one field), announced. */
export function FormError({ error }: { error: string | undefined }) {
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-red-700">
      {error}
    </p>
  );
}
