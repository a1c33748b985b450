import type { ActorRefFrom } from 'xstate';
import type { documentEditorMachine } from '../../../machines/document-editor.machine';

export type EditorActor = ActorRefFrom<typeof documentEditorMachine>;
export type EditorState = ReturnType<EditorActor['getSnapshot']>;
export type Send = EditorActor['send'];
