import { ClientNewPage } from './ClientFormPage';

export default ClientNewPage;
