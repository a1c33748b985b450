import { InsurersListPage } from './CatalogListPage';

export default InsurersListPage;
