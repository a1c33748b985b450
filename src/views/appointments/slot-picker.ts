import { useSelector } from '@xstate/react';
import type { ActorRefFrom, AnyActorRef, SnapshotFrom } from 'xstate';
import type { slotPickerMachine } from '../../machines/slot-picker.machine';

export type SlotPickerActor = ActorRefFrom<typeof slotPickerMachine>;
export type SlotPickerSnapshot = SnapshotFrom<typeof slotPickerMachine>;

/** The slot picker a page's machine invoked (`slotPicker`), while it runs. */
export function useSlotPicker(actorRef: AnyActorRef): SlotPickerActor | undefined {
  return useSelector(actorRef, (s) => (s.children as Record<string, unknown>).slotPicker) as
    SlotPickerActor | undefined;
}

/** The picker's snapshot (undefined when the page is past picking). */
export function usePickerState(
  picker: SlotPickerActor | undefined,
): SlotPickerSnapshot | undefined {
  return useSelector(picker, (s) => s);
}
