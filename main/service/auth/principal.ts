/** The authenticated caller of one request. */
export interface Principal {
  pkid: string;
  username: string;
  role: 'admin' | 'operator' | 'readonly';
  hierarchyPkid: string;
}
