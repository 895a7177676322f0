/** "you", "you and Ava", "you, Ava and Ben": the people of a booking, as its confirmation email lists them. */
export const listOfNames = (names: string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
