/** "class" or "classes" agreeing with `n`. */
export const classNoun = (n: number) => (n === 1 ? 'class' : 'classes');

/** "1 class", "3 classes" ("1 class left", never "1 classes left"). */
export const classCount = (n: number) => `${n} ${classNoun(n)}`;
