import java.io.FileInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.apache.axis.configuration.FileProvider;
import org.apache.axis.transport.http.SimpleAxisServer;

/**
 * Axis 1.4's own HTTP server, SimpleAxisServer (no servlet container), with the engine configured
 * by server-config.wsdd: `java -cp <axis jars>:<classes> OrdersServer <server-config.wsdd>` listens
 * on 127.0.0.1, a free port, and prints it on a line of its own.
 */
public class OrdersServer {
  public static void main(String[] args) throws Exception {
    SimpleAxisServer server = new SimpleAxisServer();
    server.setMyConfig(new FileProvider(new FileInputStream(args[0])));
    ServerSocket socket = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    server.setServerSocket(socket);
    server.start(false);
    System.out.println(socket.getLocalPort());
    System.out.flush();
  }
}
