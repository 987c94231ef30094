/** The option an arrow key moves to in a list of `length` options; -1 is "none" (focus stays in the input). */
export function moveActive(current: number, length: number, key: 'ArrowDown' | 'ArrowUp' | 'Home' | 'End'): number {
  if (length === 0) return -1;
  switch (key) {
    case 'ArrowDown':
      return current >= length - 1 ? 0 : current + 1;
    case 'ArrowUp':
      return current <= 0 ? length - 1 : current - 1;
    case 'Home':
      return 0;
    case 'End':
      return length - 1;
  }
}

/** Whether typed text can be sent as an e-mail address (the server then matches it among the members). */
export function looksLikeEmail(text: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim());
}
