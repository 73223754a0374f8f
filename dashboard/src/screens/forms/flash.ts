// A message for the next screen to show once: after creating a form (its page) or deleting one (the list).
let flash = '';

/** Leaves a message for the next screen. */
export function setFlash(message: string): void {
  flash = message;
}

/** The message left, once: a second call gets ''. */
export function takeFlash(): string {
  const f = flash;
  flash = '';
  return f;
}
