import type { FieldValues, Path, UseFormRegister } from 'react-hook-form';

// MUI TextField wants the input ref on inputRef, not ref (which lands on the wrapper).
export const registerMui = <T extends FieldValues>(register: UseFormRegister<T>, name: Path<T>) => {
  const { ref, ...field } = register(name);
  return { ...field, inputRef: ref };
};
