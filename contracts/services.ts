/** The three services under test, with their documents, base paths and interface versions. */
export const SERVICES = ['technical-token-manager', 'notification', 'event-management'] as const;

export type ServiceName = (typeof SERVICES)[number];

export interface ServiceInfo {
  name: ServiceName;
  title: string;
  /** File name of the source document in `contracts/sources/`. */
  document: string;
  basePath: string;
  version: string;
}

export const SERVICE_INFO: Record<ServiceName, ServiceInfo> = {
  'technical-token-manager': {
    name: 'technical-token-manager',
    title: 'Technical Token Manager',
    document: 'technical-token-manager.md',
    basePath: '/api/technicaltokenmanager/v3',
    version: '3.3.0',
  },
  notification: {
    name: 'notification',
    title: 'Notification Service',
    document: 'notification.md',
    basePath: '/api/notification/v3',
    version: '3.4.1',
  },
  'event-management': {
    name: 'event-management',
    title: 'Event Management Service',
    document: 'event-management.md',
    basePath: '/api/eventmanagement/v3',
    version: '3.13.0',
  },
};

/** True when `name` is one of the services. */
export function isServiceName(name: string): name is ServiceName {
  return (SERVICES as readonly string[]).includes(name);
}
