import { useTranslation } from 'react-i18next';
import { useSessionStatus } from '../../session-status';

/** A user id as a name: the signed-in person by name, anyone else by a short id. */
export function useWhoIs() {
  const { t } = useTranslation('clinical');
  const status = useSessionStatus();
  const me = status.kind === 'signedIn' ? status.session : null;
  return (userId: string | null) => {
    if (userId === null) return t('signature.unknown');
    if (me && userId === me.userId) return me.coach?.name ?? me.email ?? t('signature.you');
    return t('signature.otherUser', { id: userId.slice(0, 8) });
  };
}
