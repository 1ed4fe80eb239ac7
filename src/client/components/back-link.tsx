/** The one way back above a record's screen (machine → dashboard, notification → its machine), as a breadcrumb. */
import { Breadcrumb } from '@chakra-ui/react';
import { ChevronLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

/** `state`: navigation state for the target (a list that comes back with the filter it was left with). */
export function BackLink({ to, label, state }: { to: string; label: string; state?: unknown }) {
  const { t } = useTranslation();
  return (
    <Breadcrumb.Root aria-label={t('machine.breadcrumbLabel')}>
      <Breadcrumb.List>
        <Breadcrumb.Item>
          <Breadcrumb.Link asChild minH="11" display="inline-flex" alignItems="center">
            <RouterLink to={to} state={state}>
              <ChevronLeft size={18} aria-hidden />
              {label}
            </RouterLink>
          </Breadcrumb.Link>
        </Breadcrumb.Item>
      </Breadcrumb.List>
    </Breadcrumb.Root>
  );
}
