#!/usr/bin/env sh
# A self-signed certificate for trying the production topology on this machine (nginx of
# docker-compose.yml reads CERT_DIR, deploy/certs by default):
#
#   deploy/make-local-cert.sh                      # for localhost and 127.0.0.1
#   deploy/make-local-cert.sh cards.lan 192.168.1.20   # other names or addresses
#
# It writes CERT_DIR/fullchain.pem and CERT_DIR/privkey.pem, and never overwrites a certificate
# that is there (remove it first). Browsers warn about it, as they should: it is nobody's
# word but yours. For a server on the internet, get a real one (docs/deploy.md#tls).
set -eu
dir=${CERT_DIR:-$(dirname "$0")/certs}
[ $# -gt 0 ] || set -- localhost 127.0.0.1
if [ -e "$dir/fullchain.pem" ] || [ -e "$dir/privkey.pem" ]; then
    echo "$dir already holds a certificate: left as it is" >&2
    exit 0
fi
san=""
for name in "$@"; do
    case $name in
        *[!0-9.]*) case $name in *:*) kind=IP ;; *) kind=DNS ;; esac ;;
        *) kind=IP ;;
    esac
    san="${san:+$san,}$kind:$name"
done
mkdir -p "$dir"
umask 077
openssl req -x509 -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -sha256 \
    -days 365 -subj "/CN=$1" -addext "subjectAltName=$san" \
    -keyout "$dir/privkey.pem" -out "$dir/fullchain.pem"
chmod 644 "$dir/fullchain.pem"
echo "made $dir/fullchain.pem for $san (valid 365 days)"
