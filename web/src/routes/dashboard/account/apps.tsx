import { createFileRoute } from '@tanstack/react-router';
import { AppsScreen } from '../../../features/client-apps/apps-screen.tsx';
import { getApp } from '../../../features/client-apps/api/get-app.ts';
import { RecordHistory } from '../../../features/history/record-history.tsx';

export const Route = createFileRoute('/dashboard/account/apps')({
  component: AppsPage,
});

function AppsPage() {
  return (
    <AppsScreen
      history={(app) => <RecordHistory entity="client-app" reference={app.app_reference} readAction={getApp.action} current={app} name={`client app ${app.app_reference}`} />}
    />
  );
}
